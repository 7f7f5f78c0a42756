"""The grammar of the book's language, shipped inside the package as `pseudo.grammar`."""
