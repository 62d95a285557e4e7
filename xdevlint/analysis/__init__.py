"""Facts about a file that several rules share, computed once per file."""
