"""The question pipeline: the only core package that reads the store while answering."""
