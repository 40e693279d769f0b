// The page each line box of a PDF block lies on. A paragraph that runs on past a page
// break is one block whose lines past the break carry their page as a seventh number
// (`[x0, top, x1, bottom, start, end, page]`); every other line lies on the block's page.

export const boxPage = (block, box) => box[6] ?? block.page;

// The pages a block's lines lie on, first to last.
export const pagesOf = (block) => [...new Set(block.boxes.map((box) => boxPage(block, box)))];

export const boxesOn = (block, page) => block.boxes.filter((box) => boxPage(block, box) === page);
