func.func @bb1() {
^f:
}
