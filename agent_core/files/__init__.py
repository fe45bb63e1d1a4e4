"""Runs as files: export, the Python script, trust in a file's choices and share links."""
