"""faro-box: a dealing assistant for the historical card game faro."""

__version__ = "0.1.0"
