"""A club's members between tournaments: adding, inviting, roles, removing, merging two records
of one person, and CSV import and export. Services write, selectors read; views stay thin."""
