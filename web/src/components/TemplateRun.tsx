// The editor's Run: the template being edited against one target (POST /v1/template/run), as nuclei's
// -debug shows it — each request and its response (collapsible), which matchers fired, what the extractors
// took, the result events — and a clear message when the run is refused (deny list, signature, invalid
// template) or stopped by a cap (time, requests).
import { Accordion, Alert, Badge, Button, Code, Group, List, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, ApiFailure, ok } from '../api/client';
import type { paths } from '../api/schema';
import { errorMessage } from './States';
import type { LineProblem } from './YamlEditor';

type RunAnswer = paths['/v1/template/run']['post']['responses'][200]['content']['application/json'];
type Step = RunAnswer['requests'][number];

/** What a refusal is, for its title: the deny list, the signature rule, the validator, the run limit. */
function refusalTitle(err: unknown): string {
  if (!(err instanceof ApiFailure)) return 'The run failed';
  const code = err.body?.code;
  if (code === 'invalid_template') return 'The template is invalid: it was not run';
  if (code === 'template_not_signed') return 'Refused: the template is not signed';
  if (code === 'too_many_runs') return 'Too many runs at once';
  if (err.status === 403) return 'Your role may not run templates';
  if (err.body?.param === 'target' && /denied/.test(err.body.message)) return 'Refused: the target is on the deny list';
  if (err.body?.param === 'target') return 'The target is not valid';
  return 'The run failed';
}

function headersText(hs: string[][]): string {
  return hs.map(([k, v]) => `${k}: ${v}`).join('\n');
}

function StepDetail({ step }: { step: Step }) {
  const req = step.request;
  const res = step.response;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Request
      </Text>
      <Code block data-testid="run-request" style={{ maxHeight: 300, overflow: 'auto' }}>
        {`${req.method} ${req.url}\n${headersText(req.headers)}${req.body ? `\n\n${req.body}` : ''}${req.body_truncated ? '\n… (cut)' : ''}`}
      </Code>
      <Text size="sm" fw={600}>
        Response
      </Text>
      {res ? (
        <Code block data-testid="run-response" style={{ maxHeight: 400, overflow: 'auto' }}>
          {`${res.status} (${res.duration_ms} ms)\n${headersText(res.headers)}\n\n${res.body}${res.body_truncated ? '\n… (cut)' : ''}`}
        </Code>
      ) : (
        <Alert color={step.denied ? 'orange' : 'red'} data-testid="run-step-error">
          {step.denied ? 'Refused by the deny list: ' : 'No response: '}
          {step.error}
        </Alert>
      )}
      {step.matchers.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            Matchers (condition: {step.matchers_condition}) — {step.matched ? 'matched' : 'not matched'}
          </Text>
          <Table data-testid="run-matchers" withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Matcher</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Result</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {step.matchers.map((m) => (
                <Table.Tr key={m.index} data-testid="run-matcher">
                  <Table.Td>{m.name ?? `#${m.index}`}</Table.Td>
                  <Table.Td>
                    {m.type}
                    {m.part ? ` (${m.part})` : ''}
                    {m.negative ? ', negative' : ''}
                    {m.internal ? ', internal' : ''}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={m.matched ? 'green' : 'gray'} variant="light">
                      {m.matched ? 'fired' : 'did not fire'}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {step.extractors.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            Extractors
          </Text>
          <List size="sm" data-testid="run-extractors">
            {step.extractors.map((e) => (
              <List.Item key={e.index}>
                {e.name ?? `#${e.index}`} ({e.type}
                {e.internal ? ', internal' : ''}): {e.values.length ? e.values.join(', ') : 'nothing'}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

export function TemplateRun({ text, onInvalid }: { text: string; onInvalid: (errors: LineProblem[]) => void }) {
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<RunAnswer>();
  const [error, setError] = useState<unknown>();

  const run = async () => {
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    try {
      const out = await ok(api.POST('/v1/template/run', { body: { template: text, target: target.trim() } }));
      setAnswer(out as unknown as RunAnswer);
    } catch (err) {
      setError(err);
      const body = err instanceof ApiFailure ? (err.body as { errors?: LineProblem[] } | undefined) : undefined;
      if (body?.errors) onInvalid(body.errors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack data-testid="template-run">
      <Group align="flex-end">
        <TextInput
          label="Target"
          description="One URL or host; the run sends real requests under the scans' deny list and records no scan"
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value)}
          placeholder="https://example.com"
          w={420}
          data-testid="run-target"
        />
        <Button onClick={run} loading={busy} disabled={!target.trim()} data-testid="run-template">
          Run
        </Button>
      </Group>
      {error !== undefined && (
        <Alert color="red" title={refusalTitle(error)} data-testid="run-error">
          {errorMessage(error)}
        </Alert>
      )}
      {answer && (
        <Stack gap="xs" data-testid="run-result">
          <Alert color={answer.matched ? 'green' : 'gray'} data-testid="run-summary">
            {answer.matched ? 'Matched' : 'Did not match'} — {answer.requests_sent} request(s) sent in{' '}
            {answer.duration_ms} ms
          </Alert>
          {answer.stopped && (
            <Alert color="orange" title={answer.stopped === 'time' ? 'Timed out' : 'Request cap reached'}>
              The run was stopped by its {answer.stopped === 'time' ? 'time cap' : 'request cap'}; what ran is shown.
            </Alert>
          )}
          {answer.notices.length > 0 && (
            <List size="sm" data-testid="run-notices">
              {answer.notices.map((n, i) => (
                <List.Item key={i}>{n}</List.Item>
              ))}
            </List>
          )}
          <Accordion multiple variant="contained" data-testid="run-steps">
            {answer.requests.map((s, i) => (
              <Accordion.Item key={i} value={String(i)}>
                <Accordion.Control data-testid="run-step">
                  <Group gap="xs">
                    <Text size="sm">
                      {s.request.method} {s.request.url}
                    </Text>
                    <Badge variant="light" color={s.response ? 'blue' : 'red'}>
                      {s.response ? s.response.status : s.denied ? 'denied' : 'error'}
                    </Badge>
                    {s.matched && (
                      <Badge color="green" variant="light">
                        matched
                      </Badge>
                    )}
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <StepDetail step={s} />
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
          {answer.events.length > 0 && (
            <>
              <Text size="sm" fw={600}>
                Result events
              </Text>
              <List size="sm" data-testid="run-events">
                {answer.events.map((ev, i) => (
                  <List.Item key={i}>
                    {String(ev['matched-at'] ?? ev.host ?? '')}
                    {ev['matcher-name'] ? ` [${String(ev['matcher-name'])}]` : ''}
                    {Array.isArray(ev['extracted-results'])
                      ? ` ${(ev['extracted-results'] as string[]).join(', ')}`
                      : ''}
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}
