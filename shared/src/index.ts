/**
 * The kit's surface: what services, the gateway, the runtime, tests and benchmarks use. The rest of
 * shared/src is internal to the kit (issue 37: a kit small enough to hold in one's head); a name
 * becomes public here when something outside the kit needs it.
 */
export { type BaseConfig, baseConfigSchema, boolFromEnv, loadConfig } from './config';
export { createLogger, type Logger, setLogDestination } from './logger';
export { newId, newIdWithPrefix } from './ids';
export { logRequestOnFinish, startRequestId } from './request-log';
export { ApiError, BadRequest, Conflict, type FieldError, Forbidden, NotFound, OutOfReach, PeriodLocked, ServiceUnavailable, Unauthorized, ValidationError } from './errors';
export { formatPath, zodFieldErrors } from './validation';
export { badTextReason, malformedPercentEncoding, scanJson } from './text-guard';
export { actorOf, anonymousPrincipal, generateInternalKeyPair, INTERNAL_TOKEN_HEADER, type InternalKeyPair, InternalTokenSigner, InternalTokenVerifier, ownEmployeeId, type Principal, type Reach, reachCoversLocation, reachFor, type ReachSet, systemPrincipal } from './auth';
export { decodeCursor, encodeCursor, type ListPage, pageLimit, type PageRequest, toPage } from './pagination';
export { changedFields } from './events';
export { created, internalRoute, type InternalRouteDef, noContent, ok, route, type RouteContext, type RouteDef } from './routes';
export { afterCommit, createOrm, type EntityManager, migrate, Migration, type MigrationEntry, type Orm, pendingMigrations, readSnapshot, sqlQuery } from './db';
export { createService, type RunningService, type ServiceDefinition, serviceRuntime, type ServiceRuntime, startService, withinMs } from './service';
export { renderError } from './response';
export { undocumentedStatuses } from './service-routes';
export { runStandalone, runUntilSignal } from './standalone';
export { freePort, type HttpListener, kitRequest, type KitRequest, listenHttp, setRequestUrl, urlHost } from './http-server';
export { type Bus, type BusMessage, type ConsumedMessage } from './bus/types';
export { type ConsumerDef, defineConsumer, withoutNul, type WorkerDef } from './consumers';
export { callCommand, callJson, type ServiceAnswer, ServiceClient } from './service-client';
export { resolveAttachments } from './attachments-client';
export { Relay } from './relay';
export { ConsumerRunner, listDeadLetters } from './consumer-runner';
export { outboxTableSql } from './kit-tables';
export { busSchemaSql, createBus, createPostgresBus } from './bus';
export { Waker } from './waker';
export { assertBatchSize, batchCompletedEvent, type BatchResult, canonicalJson, contentHash, firstOfEach, ingestBatch, type IngestEvent, type IngestTarget, lockStoredRecords, parseBatchRecords, type PreparedRecord, type RecordResult, type StoredKey, type StoredRecord, storedState } from './ingest';
export { assertCompanyWide, assertEmployeeRecordInReach, assertLocationInReach, atEmployeeLocations, employeeRecordScope, type EmployeeRecordScope, employeeScopeCondition, locateRecords, locationFilter, locationFor, type LocationMap, locationReplicaEntity, locationsInOrgUnitsOf, orgReplicaConsumers, orgReplicaTablesSql, parseLocatedRecords, reachableLocationIds, reachCoversEmployeeRecord, type ReplicaLocation, replicaLocationErrors, resolveLocations, writableLocations } from './org-replica';
export { employeeFor, employeeReadThrough, employeeReplicaConsumers, employeeReplicaEntity, employeeReplicaTablesSql, payRateInForce, type ReplicaEmployee, replicaPayRates, resolveEmployees } from './employee-replica';
export { addDays, businessDayOf, offsetMs } from './business-day';
export { splitDayHours, type DayHours, type HoursSplit } from './day-hours';
export { fmtAmount, fmtQuantity, round6 } from './money';
export { readThroughReplica } from './read-through';
export { handleClientErrors } from './pg-clients';
export { type Clock, fixedClock, now, systemClock, useClock } from './clock';
export { backoffDelay, type BackoffPolicy } from './retry';
export { chunks, lockForTransaction, sqlList, SqlWhere } from './sql';
export { findPage, mapPage } from './pages';
export { FIND_PLAIN_ALIAS, findPlain, findPlainRaw } from './find-plain';
export { ChangePage, type ChangePosition, decodeChangeCursor, encodeChangeCursor, trackChangesSql } from './changes';
export { addMetricsSource, addScrapeCollector, aggregateMetrics, collectMetricsText, countIf, enableMetrics, metrics, metricsEnabled, type MetricsJson, recordHttp, recordIngest, threadMetrics } from './telemetry/metrics';
export { serveMetrics } from './telemetry/service-metrics';
export { currentTraceParent, inSpan, nameServerSpan, requestTraceContext, serveTraced, SpanKind, SpanStatusCode, startClientSpan, type TraceContext } from './telemetry/trace-context';
export { LocalDirectoryStorage, type ObjectStorage, openStorage, storageSettingsFromEnv, type StoredObject } from './storage';
export { toCsv } from './csv';
export { type EventInput, openWork, type Work } from './work';
export { defineWorker, type WorkerRound, type WorkerSpec } from './worker';
