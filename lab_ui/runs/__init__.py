"""The Runs page: saved runs, their actions and comparing two runs."""
