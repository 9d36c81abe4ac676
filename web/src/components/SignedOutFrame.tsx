// The frame of the pages seen without a session (sign-in, invite, an unknown address): a card in the middle.
import { Center, Paper } from '@mantine/core';
import { MAIN_ID, SkipLink } from './SkipLink';

export function SignedOutFrame({ width = 400, children }: { width?: number; children: React.ReactNode }) {
  return (
    <>
      <SkipLink />
      <Center
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        mih="100vh"
        bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))"
        p="md"
      >
        <Paper withBorder shadow="sm" p="xl" w={width} maw="100%">
          {children}
        </Paper>
      </Center>
    </>
  );
}
