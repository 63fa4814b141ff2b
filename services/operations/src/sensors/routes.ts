import { assertBatchSize, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { OperationsConfig } from '../config';
import { sensorDto } from './dto';
import { ingestReadings } from './ingest-store';
import { archiveSensor, createSensorFrom, getSensor, listReadings, listSensors, patchSensor, putSensorByExternalId, sensorConflictFor } from './store';

/** Sensors and their readings (issue 19 item 4); reach by the sensor's location. */
export const sensorRoutes = (svc: ServiceRuntime<OperationsConfig>): RouteDef[] => {
  const conflict = { conflict: sensorConflictFor };
  return [
    // spec: ingestion rules 1, 4, 5; Batch result. Each reading is judged on its own; 202 = stored.
    route('POST /sensor-readings', async (ctx) => {
      const { source, readings } = ctx.body;
      assertBatchSize(readings, svc.config.API_MAX_BATCH_SIZE, 'readings');
      return { status: 202, body: await ingestReadings(ctx, { source, records: readings, endpoint: 'POST /sensor-readings' }) };
    }),

    route('GET /sensors', async (ctx) => {
      return { body: await listSensors(ctx, ctx.query) };
    }),

    route(
      'POST /sensors',
      async (ctx) => {
        const sensor = await createSensorFrom(ctx, ctx.body);
        return { status: 201, body: sensor, headers: { Location: `/api/v1/sensors/${sensor.id}` } };
      },
      conflict,
    ),

    route('GET /sensors/external/{externalId}', async (ctx) => {
      return { body: sensorDto(await getSensor(ctx, { externalId: ctx.params.externalId })) };
    }),

    // create or replace from a monitoring system; the same content again answers 200 with the stored sensor (no version)
    route(
      'PUT /sensors/external/{externalId}',
      async (ctx) => {
        const result = await putSensorByExternalId(ctx, ctx.params.externalId, ctx.body);
        return { status: result.status, body: result.sensor, headers: result.status === 201 ? { Location: `/api/v1/sensors/${result.sensor.id}` } : undefined };
      },
      conflict,
    ),

    route('GET /sensors/{id}', async (ctx) => {
      return { body: sensorDto(await getSensor(ctx, { id: ctx.params.id })) };
    }),

    route(
      'PATCH /sensors/{id}',
      async (ctx) => {
        return { body: await patchSensor(ctx, ctx.params.id, ctx.body) };
      },
      conflict,
    ),

    // archive: readings and alarms kept; new readings refused per record
    route(
      'DELETE /sensors/{id}',
      async (ctx) => {
        return { body: await archiveSensor(ctx, ctx.params.id) };
      },
      conflict,
    ),

    // spec: Limits, up to 1,000 readings newest first
    route('GET /sensors/{id}/readings', async (ctx) => {
      return { body: await listReadings(ctx, ctx.params.id, ctx.query) };
    }),
  ];
};
