"""Dog Companion: a refereed Dog table — rules engine, live table, web page and CLI."""

__version__ = "0.1.0"
