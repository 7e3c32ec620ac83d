// HapticsCommandLine
