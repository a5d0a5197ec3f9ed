"""Graphs over the arms: unit interval graphs and side information (UIG), and the graph
generators and instances of the thresholding chapter (GRAPL20)."""
