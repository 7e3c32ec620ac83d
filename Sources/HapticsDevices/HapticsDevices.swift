// HapticsDevices
