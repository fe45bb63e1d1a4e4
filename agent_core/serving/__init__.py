"""Class-server mode: how this server runs, who a learner is, where a learner's calls may go, what each may spend."""
