// HapticsScheduler
