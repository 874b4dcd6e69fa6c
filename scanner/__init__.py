"""Phone photos of sheets in, marks and scores out."""
