"""The Teacher page."""
