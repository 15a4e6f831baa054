"""ratings' record side, the Django app (label `ratings`): rating cells and snapshots, the leaderboards' reads, the
reports, and the receivers of the record's events; all on `ratings.maths`."""
