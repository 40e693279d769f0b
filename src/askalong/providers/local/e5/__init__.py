"""A fast engine for the bundled e5 model: the package's own tokenizer and weights, run in
numpy or as an ONNX int8 graph."""
