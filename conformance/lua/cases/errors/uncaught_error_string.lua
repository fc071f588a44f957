print("output before error")
error("fatal problem")
