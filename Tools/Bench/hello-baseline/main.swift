// The baseline of `Tools/bench size`: a hello-world built the same way as minimal-client.
print("hello")
