// What the pages add to `window` beyond the DOM (checked by `tsc -p jsconfig.json`).
interface Window {
  /** The page's top object (reader, chat page, collection), left for tests and the console. */
  askalong: unknown;
  /** tus-js-client, loaded by a classic <script> before the modules (vendor/tus.min.js). */
  tus: any;
}
