import type {
  CategoryMappingDto,
  CategoryMappingInput,
  ErpVariantOptionDto,
  ListingProfileDto,
  MarketplaceAttributeDto,
  MarketplaceCategoryDto,
} from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

/** Product listing on a marketplace channel (issue 37): its own lists and the company's mappings. */
const base = (channelId: number) => `/api/channels/${channelId}`;

export function useMarketplaceCategories(channelId: number) {
  return useQuery({
    queryKey: ["channel-listing", channelId, "categories"],
    queryFn: ({ signal }) => api.get<MarketplaceCategoryDto[]>(`${base(channelId)}/categories`, { signal }),
    staleTime: 10 * 60_000,
  });
}

export function useMarketplaceAttributes(channelId: number, categoryId: string | null) {
  return useQuery({
    queryKey: ["channel-listing", channelId, "attributes", categoryId],
    queryFn: ({ signal }) =>
      api.get<MarketplaceAttributeDto[]>(`${base(channelId)}/categories/${categoryId}/attributes`, {
        signal,
      }),
    enabled: categoryId !== null,
    staleTime: 10 * 60_000,
  });
}

export function useListingProfile(channelId: number) {
  return useQuery({
    queryKey: ["channel-listing", channelId, "profile"],
    queryFn: ({ signal }) => api.get<ListingProfileDto>(`${base(channelId)}/listing-profile`, { signal }),
    staleTime: 10 * 60_000,
  });
}

/** The marketplace's brand list (none where the brand is typed: see `useListingProfile`). */
export function useMarketplaceBrands(channelId: number, enabled = true) {
  return useQuery({
    queryKey: ["channel-listing", channelId, "brands"],
    queryFn: ({ signal }) =>
      api.get<Array<{ id: string; name: string }>>(`${base(channelId)}/brands`, { signal }),
    enabled,
    staleTime: 10 * 60_000,
  });
}

/** The variant options (and their values) of the ERP's products in one ERP category. */
export function useErpVariantOptions(channelId: number, erpCategory: string) {
  return useQuery({
    queryKey: ["channel-listing", channelId, "erp-variant-options", erpCategory],
    queryFn: ({ signal }) =>
      api.get<ErpVariantOptionDto[]>(
        `${base(channelId)}/erp-variant-options?category=${encodeURIComponent(erpCategory)}`,
        { signal },
      ),
    enabled: erpCategory.trim() !== "",
    staleTime: 5 * 60_000,
  });
}

export function useCategoryMappings(channelId: number) {
  return useQuery({
    queryKey: ["channel-listing", channelId, "mappings"],
    queryFn: ({ signal }) =>
      api.get<CategoryMappingDto[]>(`${base(channelId)}/category-mappings`, { signal }),
  });
}

export function useSaveCategoryMapping(channelId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CategoryMappingInput) =>
      api.post<CategoryMappingDto>(`${base(channelId)}/category-mappings`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ["channel-listing", channelId, "mappings"] }),
  });
}

export function useRemoveCategoryMapping(channelId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mappingId: number) => api.delete<null>(`${base(channelId)}/category-mappings/${mappingId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ["channel-listing", channelId, "mappings"] }),
  });
}

export function useStartListing(channelId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ runId: number; jobId: number }>(`${base(channelId)}/listing`),
    onSuccess: () => client.invalidateQueries({ queryKey: ["jobs"] }),
  });
}
