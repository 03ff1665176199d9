// an f16 sum reaching 65504 is inf on chip (f32 chunks rounded once) and 65504 in the interpreter
// (rounded per step): inputs near the type's largest value and a sum count as a documented difference.
