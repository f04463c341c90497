"""The version of the SDK (also in clients/python/pyproject.toml)."""

__version__ = "0.1.0"
