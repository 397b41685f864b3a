import type {
  Account,
  License,
  UpdateAccountRequest,
  UpdateCompanyRequest,
  UpdatePasswordRequest,
} from "@ep/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchAccount } from "@/features/auth/api";
import { getSession, setAccount } from "@/features/auth/session-store";
import { api, request } from "@/lib/api-client";

export const accountKeys = {
  account: ["account"] as const,
  licences: ["licences"] as const,
};

/** GET /api/Account, shown at once from the persisted copy and refreshed in the background. */
export function useAccount() {
  const persisted = getSession().account;
  return useQuery({
    queryKey: accountKeys.account,
    queryFn: ({ signal }) => fetchAccount(signal),
    initialData: persisted ?? undefined,
    initialDataUpdatedAt: 0,
  });
}

export function useLicences() {
  return useQuery({
    queryKey: accountKeys.licences,
    queryFn: ({ signal }) => api.get<License[]>("/api/CustomerLicense", { signal }),
  });
}

function useAccountWrite<TBody>(call: (body: TBody) => Promise<{ data: Account; message: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: ({ data }) => {
      setAccount(data);
      client.setQueryData(accountKeys.account, data);
    },
  });
}

/** PUT /api/Account — first name, last name, phone. */
export const useUpdateProfile = () =>
  useAccountWrite((body: UpdateAccountRequest) => request<Account>("/api/Account", { method: "PUT", body }));

/** PUT /api/Account/company — company name, tax office, tax number, address, phone. */
export const useUpdateCompany = () =>
  useAccountWrite((body: UpdateCompanyRequest) =>
    request<Account>("/api/Account/company", { method: "PUT", body }),
  );

/** POST /api/Account/update-password. */
export const useUpdatePassword = () =>
  useMutation({
    mutationFn: (body: UpdatePasswordRequest) =>
      request<null>("/api/Account/update-password", { method: "POST", body }),
  });
