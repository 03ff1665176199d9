module @m {
}
------------------ END OF MLIR MODULE ------------------
