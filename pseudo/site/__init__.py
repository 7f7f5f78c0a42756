"""The playground: a static site where the book's programs run, trace and step in a browser
with nothing installed (Pyodide runs pseudo itself in a Web Worker)."""
