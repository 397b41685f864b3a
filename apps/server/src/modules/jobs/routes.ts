import {
  channelFilterSchema,
  envelopeSchema,
  idParam,
  jobErrorIdListSchema,
  jobErrorQuerySchema,
  jobHistoryQuerySchema,
  jobHistoryReportSchema,
  jobHistorySchema,
  jobSchema,
  jobTypeListSchema,
  jobTypeSchema,
  lineInput,
  pagedListSchema,
  pageNumberParam,
  pageSizeParam,
  updateJobSchema,
} from "@ep/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context.ts";
import { authOf, companyOf, requireCompanyUser } from "../../platform/http/auth.ts";
import { AppError, ok } from "../../platform/http/envelope.ts";
import type { WithEngine } from "./engine-host.ts";
import { requireCompanyUserForLongPoll } from "./long-poll-auth.ts";
import { JobService } from "./service.ts";

const id = idParam();
const tags = ["Jobs"];
const LONG_POLL_RETRY_SECONDS = 5;
const LONG_POLL_PATH = "/api/JobHistory/do-long-polling";

/** Spec section 7 "Jobs": jobs, their history with reports, the long poll and failed tasks. */
export function jobRoutes(ctx: AppContext & WithEngine): FastifyPluginAsyncZod {
  return async (app) => {
    const service = new JobService(ctx);
    const companyUser = requireCompanyUser(ctx);
    const longPollUser = requireCompanyUserForLongPoll(ctx);
    app.addHook("onRequest", (request, reply) =>
      request.routeOptions.url === LONG_POLL_PATH
        ? longPollUser(request, reply)
        : companyUser(request, reply),
    );

    app.get(
      "/api/Job/type-filter/:types",
      {
        schema: {
          tags,
          params: z.object({ types: jobTypeListSchema }),
          // A sales channel's jobs, the shop's, or (absent) every channel's (issue 37).
          querystring: z.object({ channel: channelFilterSchema }),
          response: { 200: envelopeSchema(z.array(jobSchema)) },
        },
      },
      async (request) =>
        ok(await service.list(companyOf(request), request.params.types, request.query.channel)),
    );

    app.get(
      "/api/Job/:id",
      { schema: { tags, params: z.object({ id }), response: { 200: envelopeSchema(jobSchema) } } },
      async (request) => ok(await service.get(companyOf(request), request.params.id)),
    );

    app.put(
      "/api/job",
      { schema: { tags, body: updateJobSchema, response: { 200: envelopeSchema(jobSchema) } } },
      async (request) => ok(await service.update(companyOf(request), request.body, authOf(request).userId)),
    );

    app.post(
      "/api/Job/run-job",
      { schema: { tags, querystring: z.object({ jobId: id }) } },
      async (request) =>
        ok(
          await service.run(companyOf(request), request.query.jobId, authOf(request).userId),
          "engine.statusQueued",
        ),
    );

    app.get(
      "/api/JobHistory",
      {
        schema: {
          tags,
          querystring: jobHistoryQuerySchema,
          response: { 200: envelopeSchema(pagedListSchema(jobHistorySchema)) },
        },
      },
      async (request) => ok(await service.history(companyOf(request), request.query)),
    );

    app.get(
      "/api/JobHistory/report/:id",
      {
        schema: { tags, params: z.object({ id }), response: { 200: envelopeSchema(jobHistoryReportSchema) } },
      },
      async (request) => ok(await service.report(companyOf(request), request.params.id)),
    );

    app.get(
      LONG_POLL_PATH,
      {
        schema: {
          tags,
          querystring: z.object({
            jobTypes: jobTypeListSchema.optional(),
            channelName: lineInput().max(100).optional(),
          }),
        },
      },
      async (request, reply) => {
        const controller = new AbortController();
        request.raw.on("close", () => controller.abort());
        const result = await service.longPoll(
          companyOf(request),
          request.query.jobTypes ?? null,
          controller.signal,
        );
        if (!result) {
          // Past the cap: the panel's poll loop waits and tries again; the header says how long.
          reply.header("retry-after", String(LONG_POLL_RETRY_SECONDS));
          throw new AppError(429, "liveUpdates.tooManyPanels");
        }
        return ok({ ...result, channelName: request.query.channelName ?? null });
      },
    );

    app.get(
      "/api/JobErrorReport/:pageNumber/:pageSize/:jobType",
      {
        schema: {
          tags,
          params: z.object({
            pageNumber: pageNumberParam(),
            pageSize: pageSizeParam(),
            jobType: jobTypeSchema,
          }),
          querystring: jobErrorQuerySchema,
        },
      },
      async (request) => {
        const { pageNumber, pageSize, jobType } = request.params;
        return ok(
          await service.errors(companyOf(request), jobType, { pageNumber, pageSize, ...request.query }),
        );
      },
    );

    app.post(
      "/api/JobErrorReport/delete",
      { schema: { tags, body: jobErrorIdListSchema } },
      async (request) =>
        ok({
          deleted: await service.deleteErrors(
            companyOf(request),
            request.body.jobErrorIdList,
            authOf(request).userId,
          ),
        }),
    );

    app.post("/api/JobErrorReport/retry", { schema: { tags, body: jobErrorIdListSchema } }, async (request) =>
      ok(
        await service.retryErrors(companyOf(request), request.body.jobErrorIdList, authOf(request).userId),
        "engine.statusQueued",
      ),
    );
  };
}
