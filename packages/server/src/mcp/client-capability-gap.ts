import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { UpstreamServerRequest } from '../upstream/call-relay.js';

/**
 * The capability a client must have declared to be sent this request, when it did not (as the
 * revision words it: `sampling`, `sampling.tools`, `elicitation.form`, `elicitation.url`, `roots`),
 * or undefined when it did. A bare `elicitation: {}` means form mode, as it did before modes existed.
 */
export function missingCapability(request: UpstreamServerRequest, declared: ClientCapabilities | undefined): string | undefined {
  switch (request.method) {
    case 'sampling/createMessage': {
      if (declared?.sampling === undefined) return 'sampling';
      const usesTools = request.params?.['tools'] !== undefined || request.params?.['toolChoice'] !== undefined;
      return usesTools && declared.sampling.tools === undefined ? 'sampling.tools' : undefined;
    }
    case 'elicitation/create': {
      const elicitation = declared?.elicitation;
      if (elicitation === undefined) return 'elicitation';
      const mode = request.params?.['mode'] === 'url' ? 'url' : 'form';
      const modes = elicitation as { form?: unknown; url?: unknown };
      if (mode === 'url') return modes.url === undefined ? 'elicitation.url' : undefined;
      return modes.form === undefined && modes.url !== undefined ? 'elicitation.form' : undefined;
    }
    case 'roots/list':
      return declared?.roots === undefined ? 'roots' : undefined;
  }
}
