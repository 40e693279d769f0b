"""Keeping a library's parts in agreement: the checks ``askalong doctor`` runs over the
store, the keyword index, the vectors and the original files, and their repairs."""
