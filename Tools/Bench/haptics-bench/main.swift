print("haptics-bench: no benchmark yet")
