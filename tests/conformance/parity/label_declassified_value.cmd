run --labels
