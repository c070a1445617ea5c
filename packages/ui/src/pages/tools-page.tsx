import type { ToolInfo } from '@mcpproxy/schema';
import type { GatewayClient } from '../api/gateway-client.js';
import { routeHref } from '../hash-route.js';
import type { LiveGateway } from '../live/live-gateway.js';
import { StatusLine, useActionStatus } from './action-status.js';
import { ToolReviewPanel } from './tool-review-panel.js';

/** Changed (a possible rug-pull) first, then pending, then the rest, each by server and name. */
const ORDER: Readonly<Record<string, number>> = { changed: 0, pending: 1 };

export function ToolsPage({ client, gateway, reviewing }: { client: GatewayClient; gateway: LiveGateway; reviewing: string | undefined }) {
  const status = useActionStatus();
  const tools = [...gateway.tools].sort((a, b) => rank(a) - rank(b));
  const toggle = (tool: ToolInfo) =>
    status.run(async () => {
      await client.setToolDisabled(tool.id, !tool.user_disabled);
      await gateway.reload();
      return `${tool.id} ${tool.user_disabled ? 'enabled' : 'disabled'}.`;
    });
  const approve = (tool: ToolInfo) =>
    status.run(async () => {
      await client.approve([tool.id]);
      await gateway.reload();
      return `${tool.id} approved as it is listed now.`;
    });
  const current = reviewing === undefined ? undefined : gateway.tools.find((tool) => tool.id === reviewing);
  return (
    <>
      <StatusLine status={status} />
      {reviewing === undefined ? null : <ToolReviewPanel client={client} id={reviewing} tool={current} onApprove={approve} />}
      <div class="scroll" tabIndex={0} role="region" aria-label="Tools table">
        <table>
          <caption>Known tools, changed and pending first</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Approval</th>
              <th scope="col">Served to agents</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tools.map((tool) => (
              <tr key={tool.id} data-tool={tool.id}>
                <th scope="row">{tool.id}</th>
                <td data-field="approval">
                  <span class={`badge approval-${tool.approval ?? 'none'}`}>{tool.approval ?? 'no record'}</span>
                  {tool.user_disabled ? <span class="badge approval-pending">disabled</span> : null}
                  {tool.config_denied ? <span class="badge">denied by config</span> : null}
                  {tool.indexed ? null : <span class="badge">not listed now</span>}
                </td>
                <td>{tool.served ? 'yes' : 'no'}</td>
                <td class="actions">
                  <a class="button" href={routeHref('tools', tool.id)} aria-label={`Review ${tool.id}`}>
                    Review
                  </a>
                  {tool.approval === 'pending' ? (
                    <button type="button" onClick={() => approve(tool)} aria-label={`Approve ${tool.id}`}>
                      Approve
                    </button>
                  ) : null}
                  {tool.approval === undefined ? null : (
                    <button type="button" onClick={() => toggle(tool)} aria-label={`${tool.user_disabled ? 'Enable' : 'Disable'} ${tool.id}`}>
                      {tool.user_disabled ? 'Enable' : 'Disable'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function rank(tool: ToolInfo): number {
  return tool.approval === undefined ? 2 : (ORDER[tool.approval] ?? 2);
}
