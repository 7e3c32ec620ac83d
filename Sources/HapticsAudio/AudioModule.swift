// HapticsAudio: sound cues in step with haptics (see docs/audio.md once written).
