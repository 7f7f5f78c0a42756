"""The book's programs, shipped inside the package as `pseudo.programs` (see pseudo/examples.py)."""
