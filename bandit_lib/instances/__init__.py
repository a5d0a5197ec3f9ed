"""Instance generators, including seeded stand-ins for real data sets."""
