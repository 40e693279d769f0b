"""The model answerer: prompts, reply parsing, light/strong routing."""
