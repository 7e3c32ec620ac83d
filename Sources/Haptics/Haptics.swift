// Haptics
