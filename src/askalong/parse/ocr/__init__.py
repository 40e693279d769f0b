"""OCR for scanned pages: RapidOCR (PP-OCRv4 models inside the wheel), word gaps and quality."""
