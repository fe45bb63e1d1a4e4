"""The loop: the stepper, its guards, the request's context and the messages a turn adds."""
