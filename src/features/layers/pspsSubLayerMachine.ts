import { emit, setup } from 'xstate'

export interface SubLayerUpdate {
  readonly type: 'update'
  /** The chosen sub-layer id. */
  readonly subLayer: string
  /** Every sub-layer id of the layer, in config order. */
  readonly subLayers: readonly string[]
  /** The layer the sub-layers belong to. */
  readonly layer: string
}

interface Context {
  readonly layer: string
  readonly subLayers: readonly string[]
}

/**
 * The PSPS sub-layer choice (spec §4): choosing a sub-layer of the layer emits an `update` carrying
 * the chosen sub-layer, the sub-layer list and the layer; unknown ids are ignored. The selection
 * itself has one owner, the sidebar's layer state (`selectedSubLayer`, seeded from the configured
 * default), which the radios, the map and the share URL read. Config-driven, so any layer with a
 * radio group of sub-layers can use it.
 */
export const pspsSubLayerMachine = setup({
  types: {
    context: {} as Context,
    input: {} as Context,
    events: {} as { type: 'select'; subLayer: string },
    emitted: {} as SubLayerUpdate,
  },
  guards: {
    isKnownSubLayer: ({ context, event }) => context.subLayers.includes(event.subLayer),
  },
  actions: {
    emitUpdate: emit(({ context, event }) => ({
      type: 'update' as const,
      subLayer: event.subLayer,
      subLayers: context.subLayers,
      layer: context.layer,
    })),
  },
}).createMachine({
  id: 'pspsSubLayer',
  context: ({ input }) => input,
  initial: 'showing',
  states: {
    showing: {
      on: {
        select: { guard: 'isKnownSubLayer', actions: 'emitUpdate' },
      },
    },
  },
})
