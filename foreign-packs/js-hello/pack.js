// js-hello: a capstan pack in JavaScript (componentize-js / jco, SpiderMonkey),
// world capstan:pack@0.2.0.
//
// Two capabilities, both through the host's bridge:
// - jshello.count_objects (read): how many objects of one type the scene holds
//   (`get_scene_info` with a type filter);
// - jshello.create_marker (mutating): a named empty at a location (`create_object`,
//   the command blender-core's scene.create_object sends).
//
// WIT names in JS: records are objects with camelCase fields, variants are
// `{ tag, val }` with kebab-case tags, enums are kebab-case strings. An export that
// returns `result<_, E>` fails by throwing E; an import's error arrives as a thrown
// error whose `payload` is E.

import { call } from 'capstan:pack/bridge@0.2.0';
import { log } from 'capstan:pack/log@0.2.0';

const OBJECT_TYPES = [
  'MESH', 'CURVE', 'SURFACE', 'META', 'FONT', 'CURVES', 'POINTCLOUD', 'VOLUME',
  'GREASEPENCIL', 'ARMATURE', 'LATTICE', 'EMPTY', 'LIGHT', 'LIGHT_PROBE', 'CAMERA', 'SPEAKER',
];

const COUNT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { kind: { description: 'Blender object type to count.', enum: OBJECT_TYPES, type: 'string' } },
  required: ['kind'],
  additionalProperties: false,
};

const COUNTED_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { kind: { type: 'string', enum: OBJECT_TYPES }, count: { type: 'integer', minimum: 0 } },
  required: ['kind', 'count'],
  additionalProperties: false,
};

const MARKER_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    name: { description: 'Exact name of the new empty.', type: 'string', minLength: 1, maxLength: 63 },
    location: {
      description: 'Where to put it, in metres (default the origin).',
      type: 'array',
      items: { type: 'number' },
      minItems: 3,
      maxItems: 3,
    },
  },
  required: ['name'],
  additionalProperties: false,
};

const kase = (name, args, expect) => JSON.stringify({ name, arguments: args, expect });

const CAPABILITIES = [
  {
    key: 'jshello.count_objects',
    family: 'inspect',
    summary: "Count the scene's objects of one type (a JavaScript pack).",
    description: 'Asks Blender for the objects of one type and answers how many there are.',
    inputSchema: JSON.stringify(COUNT_SCHEMA),
    outputSchema: JSON.stringify(COUNTED_SCHEMA),
    tags: ['javascript', 'count'],
    aliases: [],
    examples: ['how many cameras are in the scene, javascript pack'],
    mutates: false,
    destructive: false,
    bridgeCommands: ['get_scene_info'],
    conformance: [
      kase('one camera in the factory scene', { kind: 'CAMERA' }, { result: { kind: 'CAMERA', count: 1 } }),
      kase('one mesh in the factory scene', { kind: 'MESH' }, { result: { count: 1 } }),
    ],
  },
  {
    key: 'jshello.create_marker',
    family: 'create',
    summary: 'Add a named empty as a marker (a JavaScript pack).',
    description: 'Adds an empty with exactly this name at a location, through the same bridge command as scene.create_object.',
    inputSchema: JSON.stringify(MARKER_SCHEMA),
    outputSchema: undefined,
    tags: ['javascript', 'empty', 'marker'],
    aliases: [],
    examples: ['drop a marker empty named goal, javascript pack'],
    mutates: true,
    destructive: false,
    bridgeCommands: ['create_object'],
    conformance: [
      kase('a marker is one new empty', { name: 'JsMarker', location: [-1, 0, 2] }, {
        delta: { added: ['JsMarker'] },
        result: { name: 'JsMarker', location: [-1, 0, 2] },
        reads: [{ key: 'jshello.count_objects', arguments: { kind: 'EMPTY' }, result: { count: 1 } }],
      }),
    ],
  },
];

const FAMILIES = [
  { name: 'inspect', summary: 'Look at the scene', cues: [{ weight: 3, phrases: ['how many', 'count'] }] },
  { name: 'create', summary: 'Add objects to the scene', cues: [{ weight: 3, phrases: ['marker', 'empty'] }] },
];

const invalid = (message) => ({ tag: 'invalid-arguments', val: message });

function callBridge(command, params) {
  try {
    return JSON.parse(call('blender', command, JSON.stringify(params)));
  } catch (e) {
    if (e && e.payload && typeof e.payload.code === 'string') {
      throw { tag: 'bridge', val: e.payload };
    }
    throw { tag: 'failed', val: `bridge call ${command} failed: ${e}` };
  }
}

function countObjects(args) {
  const kind = args.kind;
  if (!OBJECT_TYPES.includes(kind)) throw invalid(`unknown object type ${JSON.stringify(kind)}`);
  const scene = callBridge('get_scene_info', { type: kind, limit: 1 });
  const total = scene.page.total;
  log('info', `${total} objects of type ${kind}`);
  return { kind, count: total };
}

function createMarker(args) {
  const name = args.name;
  if (typeof name !== 'string' || name.length === 0) throw invalid('name must be a non-empty string');
  const location = (args.location ?? [0, 0, 0]).map(Number);
  const made = callBridge('create_object', { type: 'empty', name, location });
  if (made.name !== name) {
    throw { tag: 'failed', val: `Blender named the empty ${JSON.stringify(made.name)}, not ${JSON.stringify(name)} (the name is taken)` };
  }
  return { name: made.name, type: made.type, location: made.location };
}

const HANDLERS = { 'jshello.count_objects': countObjects, 'jshello.create_marker': createMarker };

export const pack = {
  describe() {
    return { families: FAMILIES, capabilities: CAPABILITIES };
  },
  execute(key, argumentsJson) {
    const handler = HANDLERS[key];
    if (!handler) throw { tag: 'unknown-capability', val: key };
    let args;
    try {
      args = JSON.parse(argumentsJson);
    } catch (e) {
      throw invalid(`arguments are not JSON: ${e}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw invalid('arguments must be a JSON object');
    return JSON.stringify(handler(args));
  },
};
