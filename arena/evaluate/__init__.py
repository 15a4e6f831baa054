"""Evaluating one agent the way a paper did: its protocol as data (protocols.py), scheduled as tournaments."""
