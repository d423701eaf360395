import { describe, expect, it } from 'vitest';
import { ConflictError, createClient, ForbiddenError, GoneError } from '../../sdk/src/index';
import { newMerchant, TEST_PASSWORD, useTestServer } from '../support/test-server';

const server = useTestServer({ JOBS: 'none' });

describe('SDK members', () => {
  it('invites, accepts, changes a role, removes, and throws the typed errors', async () => {
    const m = await newMerchant(server);
    const owner = createClient({ baseUrl: server.url });
    await owner.auth.login({ email: m.email, password: TEST_PASSWORD });
    const email = `sdk-${Date.now()}@example.com`;
    const invitation = await owner.members.invite({ email, role: 'viewer' });
    expect(invitation.status).toBe('PENDING');
    const token = invitation.link!.split('/').pop()!;
    expect((await owner.members.listInvitations()).map((i) => i.id)).toEqual([invitation.id]);

    const invitee = createClient({ baseUrl: server.url });
    expect((await invitee.members.showInvitation(token)).role).toBe('viewer');
    await invitee.members.acceptInvitation(token, { name: 'Vi', password: 'viewer password 1' });
    // The client keeps the new member's token: it is signed in, as a viewer.
    expect((await invitee.members.list()).map((x) => x.role)).toEqual(['owner', 'viewer']);
    await expect(invitee.members.invite({ email: 'x@example.com', role: 'admin' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(
      createClient({ baseUrl: server.url }).members.acceptInvitation(token, {
        name: 'x',
        password: 'long enough!',
      }),
    ).rejects.toBeInstanceOf(GoneError);

    const viewer = (await owner.members.list()).find((x) => x.role === 'viewer')!;
    expect((await owner.members.changeRole(viewer.id, 'finance')).role).toBe('finance');
    await expect(owner.members.remove(m.id)).rejects.toBeInstanceOf(ConflictError);
    await owner.members.remove(viewer.id);
    expect((await owner.members.list()).map((x) => x.role)).toEqual(['owner']);
  });
});
