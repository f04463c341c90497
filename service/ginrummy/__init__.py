"""Gin Rummy: a rules engine, computer opponents and a REST service."""

__version__ = "0.1.0"
