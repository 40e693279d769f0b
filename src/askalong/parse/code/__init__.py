"""Source code: the languages we read with tree-sitter, a file's symbols, imports and calls,
and the blocks a source file becomes."""
