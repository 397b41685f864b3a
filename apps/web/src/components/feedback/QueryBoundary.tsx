import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorMessage } from "@/lib/errors";
import { SkeletonState } from "./CardSkeleton";
import { EmptyState } from "./EmptyState";
import { ErrorState } from "./ErrorState";
import { LoadingState } from "./LoadingState";

type Props<T> = {
  query: UseQueryResult<T>;
  /** True when the loaded data has nothing to show. */
  isEmpty?: (data: T) => boolean;
  emptyMessage?: string;
  minHeight?: number | string;
  /** The content's outline while loading, where its shape is known (otherwise 'Yükleniyor...'). */
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
};

/** Request → loading; error → message and retry; success → empty state or the content. */
export function QueryBoundary<T>({ query, isEmpty, emptyMessage, minHeight, skeleton, children }: Props<T>) {
  if (query.isPending) {
    return skeleton ? <SkeletonState>{skeleton}</SkeletonState> : <LoadingState minHeight={minHeight} />;
  }
  if (query.isError) {
    return (
      <ErrorState
        message={errorMessage(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        minHeight={minHeight}
      />
    );
  }
  if (isEmpty?.(query.data)) return <EmptyState message={emptyMessage} minHeight={minHeight} />;
  return <>{children(query.data)}</>;
}
