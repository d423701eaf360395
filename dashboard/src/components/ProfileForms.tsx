import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { profileQuery, useProfileAnswer, type Profile } from '../lib/queries';
import { ErrorNotice, Loading } from './ui';

/** What a profile form is given: the profile, and where to keep the profile a write answered with. */
export type ProfileFormProps = { profile: Profile; onProfile: (p: Profile) => void };

/** The merchant's profile forms, shown once the profile is read (a retry when it could not be). */
export function ProfileForms({ forms }: { forms: ComponentType<ProfileFormProps>[] }) {
  const profile = useQuery(profileQuery);
  const onProfile = useProfileAnswer();
  return (
    <>
      {profile.isPending && <Loading />}
      {profile.isError && !profile.data && (
        <ErrorNotice error={profile.error} onRetry={() => void profile.refetch()} />
      )}
      {profile.data && forms.map((Form, i) => <Form key={i} profile={profile.data} onProfile={onProfile} />)}
    </>
  );
}
