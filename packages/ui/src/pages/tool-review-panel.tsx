import type { ToolInfo, ToolReview } from '@mcpproxy/schema';
import { useEffect, useState } from 'preact/hooks';
import type { GatewayClient } from '../api/gateway-client.js';
import { definitionSections, type DefinitionSection } from '../diff/definition-sections.js';
import { routeHref } from '../hash-route.js';

/**
 * One tool's approved definition next to the one its upstream lists now, part by part, so a
 * rug-pull is visible before anyone approves it. It is read again whenever the tool's listing entry
 * changes (the event stream brings that), so the diff never shows a state the approval would not pin.
 */
export function ToolReviewPanel({ client, id, tool, onApprove }: { client: GatewayClient; id: string; tool: ToolInfo | undefined; onApprove: (tool: ToolInfo) => Promise<void> }) {
  const [review, setReview] = useState<ToolReview | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const stamp = tool === undefined ? '' : `${tool.approval ?? ''}|${tool.hash ?? ''}|${tool.approved_hash ?? ''}`;
  useEffect(() => {
    let stale = false;
    client.review(id).then(
      (answer) => {
        if (stale) return;
        setReview(answer);
        setError(undefined);
      },
      (cause: unknown) => !stale && setError(cause instanceof Error ? cause.message : String(cause)),
    );
    return () => {
      stale = true;
    };
  }, [client, id, stamp]);

  const sections = review === undefined ? [] : definitionSections(review.approved, review.current);
  const info = review?.tool;
  return (
    <section class="review" aria-labelledby="review-title">
      <h2 id="review-title">Review {id}</h2>
      <p>
        <a href={routeHref('tools')}>Close the review</a>
      </p>
      {error === undefined ? null : (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {info === undefined ? null : (
        <>
          <dl class="facts">
            <dt>Approval</dt>
            <dd data-field="review-approval">{info.approval ?? 'no record'}</dd>
            <dt>Approved hash</dt>
            <dd>
              <code>{info.approved_hash ?? 'none'}</code>
            </dd>
            <dt>Current hash</dt>
            <dd>
              <code>{info.hash ?? 'not listed now'}</code>
            </dd>
          </dl>
          {review?.approved_recorded === false ? (
            <p class="note">This tool was approved before the gateway recorded definitions: only the hashes above can be compared.</p>
          ) : null}
          {review?.current === undefined ? <p class="note">The upstream does not list this tool now.</p> : null}
          {sections.map((section) => (
            <SectionTable key={section.title} section={section} />
          ))}
          {info.approval === 'changed' || info.approval === 'pending' ? (
            <button type="button" class="primary" onClick={() => onApprove(info)} disabled={review?.current === undefined}>
              Approve the current definition of {id}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

const MARK: Readonly<Record<string, string>> = { same: ' ', removed: '−', added: '+', changed: '~' };

function SectionTable({ section }: { section: DefinitionSection }) {
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={`${section.title}: approved and current`}>
      <table class="diff" data-section={section.title}>
        <caption>
          {section.title} {section.changed ? <strong class="changed-mark">changed</strong> : <span class="muted">unchanged</span>}
        </caption>
        <thead>
          <tr>
            <th scope="col">Approved</th>
            <th scope="col">Listed now</th>
          </tr>
        </thead>
        <tbody>
          {section.rows.length === 0 ? (
            <tr>
              <td class="muted">(none)</td>
              <td class="muted">(none)</td>
            </tr>
          ) : (
            section.rows.map((row, i) => (
              <tr key={i} class={`row-${row.kind}`}>
                <td class={row.kind === 'added' ? 'blank' : 'old'}>
                  <span class="mark" aria-hidden="true">
                    {row.kind === 'added' ? ' ' : MARK[row.kind]}
                  </span>
                  <code>{'left' in row ? row.left : ''}</code>
                </td>
                <td class={row.kind === 'removed' ? 'blank' : 'new'}>
                  <span class="mark" aria-hidden="true">
                    {row.kind === 'removed' ? ' ' : MARK[row.kind]}
                  </span>
                  <code>{'right' in row ? row.right : ''}</code>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
