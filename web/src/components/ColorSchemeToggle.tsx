// Light, dark or the system's choice (prefers-color-scheme); Mantine remembers it in localStorage
// ("vigil-color-scheme", see main.tsx).
import { SegmentedControl, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';

const CHOICES: { value: MantineColorScheme; label: string }[] = [
  { value: 'auto', label: 'Auto' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function ColorSchemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SegmentedControl
      size="xs"
      aria-label="Colour scheme"
      data-testid="color-scheme"
      data={CHOICES}
      value={colorScheme}
      onChange={(v) => setColorScheme(v as MantineColorScheme)}
    />
  );
}
