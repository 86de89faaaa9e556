// Every declared tool of a surface as a function tool, with the checks that apply to all of them.
import type { ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';
import { OpenAIAgentsError } from '../errors.js';
import { sessionFunctionTool, type ClientCallHandler, type SessionFunctionTool, type SessionModelTool } from './session-function-tool.js';

/**
 * One function tool per surface tool, in order (with the surface tool it came from). Throws
 * `missing_client_handler` when the surface has client tools and there is no `onClientCall`, and `name_collision`
 * when the SDK makes one function name of two (it turns every character but letters and digits into `_`).
 */
export function sessionFunctionTools(
  session: ToolSearchSession,
  surface: ModelSurface,
  options: { onClientCall: ClientCallHandler | undefined; deferred: (tool: SessionModelTool) => boolean },
): Array<{ modelTool: SessionModelTool; functionTool: SessionFunctionTool }> {
  const clientTools = surface.tools.filter((tool) => tool.kind === 'client').map((tool) => tool.name);
  if (clientTools.length > 0 && options.onClientCall === undefined) {
    throw new OpenAIAgentsError(
      'missing_client_handler',
      `The session declares client tools (${clientTools.join(', ')}); pass onClientCall to run them, the Agents SDK has no tool the caller executes`,
    );
  }
  const made = surface.tools.map((modelTool) => ({
    modelTool,
    functionTool: sessionFunctionTool(session, modelTool, { deferLoading: options.deferred(modelTool), onClientCall: options.onClientCall }),
  }));
  const bySdkName = new Map<string, string>();
  for (const { modelTool, functionTool } of made) {
    const other = bySdkName.get(functionTool.name);
    if (other !== undefined) {
      throw new OpenAIAgentsError('name_collision', `Tools "${other}" and "${modelTool.name}" both become the Agents SDK function name "${functionTool.name}"`);
    }
    bySdkName.set(functionTool.name, modelTool.name);
  }
  return made;
}
