"""The command-line tools: thin wrappers over the library."""
