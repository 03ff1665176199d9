#loc3 = loc(#loc2)
#loc2 = loc(callsite(#loc1 at "x":1:2))
func.func @f() {
  return loc(#loc3)
}
#loc1 = loc("name")
